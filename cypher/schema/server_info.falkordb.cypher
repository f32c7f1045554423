// Unused by FalkorStore (server_info asks the server itself); kept so every query name loads.
RETURN 'FalkorDB' AS name, null AS version, 'embedded' AS edition
