package graphbrain.neo4jlocal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

/**
 * Runs an embedded Neo4j 5.26 Community DBMS with a Bolt connector, for tests and CI machines where no
 * Neo4j server (Docker or NEO4J_URI) is reachable.
 *
 * <p>Options (each falls back to an environment variable, then a default):
 * <ul>
 *   <li>{@code --port N} / GRAPHBRAIN_NEO4J_PORT / 7687</li>
 *   <li>{@code --host H} / GRAPHBRAIN_NEO4J_HOST / 127.0.0.1</li>
 *   <li>{@code --data DIR} / GRAPHBRAIN_NEO4J_DATA / .neo4j-local/data (used as the DBMS home: data/, logs/)</li>
 *   <li>{@code --password PW} / NEO4J_PASSWORD / graphbrain (user neo4j; at least 8 characters unless
 *       {@code --min-password-length} says otherwise)</li>
 *   <li>{@code --pagecache SIZE} / GRAPHBRAIN_NEO4J_PAGECACHE / 128m</li>
 *   <li>{@code --pid-file PATH}: write this JVM's pid there at start, remove it on clean stop</li>
 *   <li>{@code --no-auth}: disable authentication altogether</li>
 * </ul>
 *
 * <p>Prints {@code NEO4J_READY bolt://HOST:PORT} on stdout once Bolt accepts authenticated sessions.
 */
public final class Launcher {

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        int port = Integer.parseInt(env.getOrDefault("GRAPHBRAIN_NEO4J_PORT", "7687"));
        String host = env.getOrDefault("GRAPHBRAIN_NEO4J_HOST", "127.0.0.1");
        String data = env.getOrDefault("GRAPHBRAIN_NEO4J_DATA", ".neo4j-local/data");
        String password = env.getOrDefault("NEO4J_PASSWORD", "graphbrain");
        String pagecache = env.getOrDefault("GRAPHBRAIN_NEO4J_PAGECACHE", "128m");
        int minPasswordLength = 8;
        boolean auth = true;
        Path pidFile = null;

        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--port" -> port = Integer.parseInt(need(args, ++i, a));
                case "--host" -> host = need(args, ++i, a);
                case "--data" -> data = need(args, ++i, a);
                case "--password" -> password = need(args, ++i, a);
                case "--pagecache" -> pagecache = need(args, ++i, a);
                case "--min-password-length" -> minPasswordLength = Integer.parseInt(need(args, ++i, a));
                case "--pid-file" -> pidFile = Path.of(need(args, ++i, a)).toAbsolutePath();
                case "--no-auth" -> auth = false;
                case "-h", "--help" -> {
                    System.out.println("usage: Launcher [--port N] [--host H] [--data DIR] [--password PW]"
                            + " [--pagecache SIZE] [--min-password-length N] [--pid-file PATH] [--no-auth]");
                    return;
                }
                default -> {
                    System.err.println("unknown argument: " + a);
                    System.exit(2);
                }
            }
        }
        if (auth && password.length() < minPasswordLength) {
            // Neo4j refuses short passwords; follow the caller's choice rather than failing.
            minPasswordLength = Math.max(1, password.length());
        }

        Path home = Path.of(data).toAbsolutePath().normalize();
        Files.createDirectories(home);
        final String pid = Long.toString(ProcessHandle.current().pid());
        final Path pidPath = pidFile;
        if (pidPath != null) {
            Files.createDirectories(pidPath.getParent());
            Files.writeString(pidPath, pid + "\n");
        }
        String boltUri = "bolt://" + host + ":" + port;
        System.out.println("NEO4J_STARTING home=" + home + " uri=" + boltUri + " auth=" + auth);

        long t0 = System.nanoTime();
        final DatabaseManagementService dbms;
        try {
            dbms = build(home, host, port, auth, minPasswordLength, parseBytes(pagecache));
        } catch (Throwable t) {
            System.out.println("NEO4J_FAILED " + t);
            t.printStackTrace();
            removePidFile(pidPath, pid);
            System.exit(1);
            return;
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("NEO4J_STOPPING");
            try {
                dbms.shutdown();
            } catch (Throwable t) {
                t.printStackTrace();
            } finally {
                removePidFile(pidPath, pid);
                System.out.println("NEO4J_STOPPED");
                System.out.flush();
                stopped.countDown();
            }
        }, "neo4j-local-shutdown"));

        try {
            GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
            if (!db.isAvailable(Duration.ofMinutes(5).toMillis())) {
                throw new IllegalStateException("database 'neo4j' did not become available");
            }
            if (auth) {
                setPassword(dbms, password);
            }
            db.executeTransactionally("RETURN 1");
        } catch (Throwable t) {
            System.out.println("NEO4J_FAILED " + t);
            t.printStackTrace();
            System.exit(1);
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        System.out.println("NEO4J_READY " + boltUri + " (" + ms + " ms)");
        System.out.flush();

        stopped.await();
    }

    private static DatabaseManagementService build(
            Path home, String host, int port, boolean auth, int minPasswordLength, long pagecache) {
        return new DatabaseManagementServiceBuilder(home)
                .setUserLogProvider(new Log4jLogProvider(System.out, Level.INFO))
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(host, port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(BoltConnector.thread_pool_max_size, 64)
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                .setConfig(GraphDatabaseSettings.auth_minimum_password_length, minPasswordLength)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pagecache)
                .setConfig(GraphDatabaseSettings.tx_state_max_off_heap_memory, ByteUnit.mebiBytes(256))
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(64))
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "100M size")
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .build();
    }

    /** Sets the password of user neo4j (idempotent: the same password again is not an error). */
    private static void setPassword(DatabaseManagementService dbms, String password) {
        GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
            System.out.println("NEO4J_PASSWORD_SET user=neo4j");
        } catch (RuntimeException e) {
            String msg = String.valueOf(e.getMessage()) + " " + String.valueOf(e.getCause());
            if (msg.contains("Old password and new password cannot be the same")) {
                // Already set on an earlier start; make sure no change is required.
                system.executeTransactionally("ALTER USER neo4j SET PASSWORD CHANGE NOT REQUIRED");
                System.out.println("NEO4J_PASSWORD_UNCHANGED user=neo4j");
            } else {
                throw e;
            }
        }
    }

    private static void removePidFile(Path pidPath, String pid) {
        if (pidPath == null) {
            return;
        }
        try {
            if (Files.exists(pidPath) && Files.readString(pidPath).trim().equals(pid)) {
                Files.delete(pidPath);
            }
        } catch (Exception ignored) {
            // best effort
        }
    }

    private static String need(String[] args, int i, String flag) {
        if (i >= args.length) {
            System.err.println("missing value for " + flag);
            System.exit(2);
        }
        return args[i];
    }

    /** Parses sizes like 128m, 1g, 512k or plain bytes. */
    static long parseBytes(String s) {
        String v = s.trim().toLowerCase();
        long mult = 1;
        char last = v.charAt(v.length() - 1);
        if (last == 'b') {
            v = v.substring(0, v.length() - 1);
            last = v.charAt(v.length() - 1);
        }
        switch (last) {
            case 'k' -> mult = 1024L;
            case 'm' -> mult = 1024L * 1024;
            case 'g' -> mult = 1024L * 1024 * 1024;
            default -> { }
        }
        if (mult != 1) {
            v = v.substring(0, v.length() - 1);
        }
        return Long.parseLong(v.trim()) * mult;
    }
}
