MATCH (a:Entity)-[r:RELATED]->(b:Entity) WHERE r.predicate =~ '(.*_)?(son|daughter|child|grandson|granddaughter|nephew|niece|brother|sister|widow|wife|husband)_of'
RETURN count(*) AS kin, count(CASE WHEN a.type = 'Place' THEN 1 END) AS placeSubject, count(CASE WHEN exists { (p:Passage) WHERE p.title = a.name } THEN 1 END) AS titledSubject
