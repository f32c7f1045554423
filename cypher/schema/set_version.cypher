MERGE (v:SchemaVersion {id: 'graphbrain'})
SET v.version = $version, v.dimension = $dimension, v.english_dimension = $english_dimension, v.applied_at = datetime()
RETURN v.version AS version
