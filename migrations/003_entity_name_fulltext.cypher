// Exact-name seeding: questions that name an entity find it by its name.
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (e:Entity) ON EACH [e.name];
