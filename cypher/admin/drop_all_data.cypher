// Tests and full resets only: delete every node but the schema-version record; the schema stays.
MATCH (n) WHERE NOT n:SchemaVersion
DETACH DELETE n
