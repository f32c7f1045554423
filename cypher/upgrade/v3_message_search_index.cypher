// v3 (schema change): messages are searched by their analyzed search_text (message_search), no longer by
// the raw content; the schema creates message_search, this drops the index it replaces.
DROP INDEX message_text IF EXISTS
