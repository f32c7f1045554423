MATCH (v:SchemaVersion {id: 'graphbrain'})
RETURN v.version AS version, v.dimension AS dimension, v.english_dimension AS english_dimension
