CALL apoc.util.validate(NOT $action IN ['create', 'refresh', 'drop', 'status'],
  'action must be one of create, refresh, drop, status; got %s', [$action])
CALL () {
  WITH 1 AS one WHERE $action IN ['refresh', 'drop'] AND gds.graph.exists($graphName)
  CALL gds.graph.drop($graphName, false) YIELD graphName
  RETURN count(*) AS dropped
  UNION
  WITH 1 AS one WHERE NOT ($action IN ['refresh', 'drop'] AND gds.graph.exists($graphName))
  RETURN 0 AS dropped
}
// Entities and passages; every relationship of $projectionTypes between them,
// undirected, weighted by its weight property (1.0 when absent). A native
// projection (it reads the store directly: several times faster than a Cypher
// projection) of the labels and types this database has; GDS refuses unknown
// ones. A database without them yet (no weight property anywhere, no such
// relationship type) gets the same graph by a Cypher projection.
CALL () {
  CALL db.labels() YIELD label
  WITH collect(label) AS labels
  CALL db.relationshipTypes() YIELD relationshipType
  WITH labels, collect(relationshipType) AS relTypes
  CALL db.propertyKeys() YIELD propertyKey
  WITH labels, relTypes, collect(propertyKey) AS keys
  RETURN [l IN ['Entity', 'Passage'] WHERE l IN labels] AS nodeLabels,
         [t IN $projectionTypes WHERE t IN relTypes] AS relationshipTypes, 'weight' IN keys AS weighted
}
WITH dropped, nodeLabels, relationshipTypes,
     $action IN ['create', 'refresh'] AND NOT gds.graph.exists($graphName) AS build,
     size(nodeLabels) > 0 AND size(relationshipTypes) > 0 AND weighted AS native
CALL (build, native, nodeLabels, relationshipTypes) {
  WITH 1 AS one WHERE build AND native
  CALL gds.graph.project($graphName, nodeLabels,
         apoc.map.fromLists(relationshipTypes, [t IN relationshipTypes |
           {type: t, orientation: 'UNDIRECTED', properties: {weight: {property: 'weight', defaultValue: 1.0}}}]),
         {logProgress: false}) YIELD graphName
  RETURN graphName AS created
  UNION
  WITH 1 AS one WHERE build AND NOT native
  MATCH (s) WHERE s:Entity OR s:Passage
  OPTIONAL MATCH (s)-[r]->(t)
  WHERE type(r) IN $projectionTypes AND (t:Entity OR t:Passage)
  WITH gds.graph.project($graphName, s, t,
         {relationshipProperties: {weight: toFloat(coalesce(r.weight, 1.0))}},
         {undirectedRelationshipTypes: ['*'], logProgress: false}) AS g
  RETURN g.graphName AS created
  UNION
  WITH 1 AS one WHERE NOT build
  RETURN null AS created
}
CALL () {
  CALL gds.graph.list() YIELD graphName, nodeCount, relationshipCount, creationTime
  WITH graphName, nodeCount, relationshipCount, creationTime WHERE graphName = $graphName
  RETURN collect({nodeCount: nodeCount, relationshipCount: relationshipCount, creationTime: toString(creationTime)}) AS found
}
OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'})
RETURN $graphName AS graphName, $action AS action, size(found) > 0 AS exists,
       found[0].nodeCount AS nodeCount, found[0].relationshipCount AS relationshipCount,
       found[0].creationTime AS creationTime, toString(m.updatedAt) AS graphUpdatedAt,
       size(found) > 0 AND (m.updatedAt IS NULL OR datetime(found[0].creationTime) >= m.updatedAt) AS fresh
