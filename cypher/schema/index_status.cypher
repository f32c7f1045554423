SHOW INDEXES
YIELD name, type, state, populationPercent, labelsOrTypes, properties, options
WHERE type <> 'LOOKUP'
RETURN name, type, state, populationPercent AS population, labelsOrTypes AS labels, properties,
       options.indexConfig.`vector.dimensions` AS dimension,
       options.indexConfig.`fulltext.analyzer` AS analyzer
ORDER BY name
