"""Peer retrievers for graph-recall's eval harness, run on the same Neo4j database and
the same question embeddings as graph-recall itself.

    .data/peers-venv/bin/python bench/peers/peers.py input.json > output.json

input.json:  {uri, user, password, database, k, questions: [{id, question, embedding: [...]}]}
stdout:      {versions: {"neo4j-graphrag", "neo4j", "python"},
              results: {"neo4j-graphrag:vector" | "neo4j-graphrag:hybrid" | "bm25":
                        [{id, passages: [Passage.id, ...], ms}]}}

Peers:
  neo4j-graphrag:vector  VectorRetriever(driver, index_name='passage_embedding', return_properties=['id'])
                         .search(query_vector=embedding, top_k=k)
                         -> CALL db.index.vector.queryNodes('passage_embedding', k, $vector), in index order.
  neo4j-graphrag:hybrid  HybridRetriever(driver, vector_index_name='passage_embedding',
                         fulltext_index_name='passage_text', return_properties=['id'])
                         .search(query_vector=embedding, query_text=words, top_k=k), DEFAULT ranker.
  bm25                   CALL db.index.fulltext.queryNodes('passage_text', words, {limit: k}): Lucene BM25 only.

`words` is the question reduced as graph-recall's own statements reduce it
(cypher/retrieve_hybrid.cypher): lowercased, every run of characters that are not a
Unicode letter or number replaced by one space, trimmed, at most 256 words. So no Lucene
syntax reaches the index (a raw question can fail to parse, e.g. on an unbalanced quote,
or turn "Tostig?" into a wildcard term), and the lexical input is the same for all.

Embeddings are never computed here: the vector passed is the eval's own, and no embedder
is given to the retrievers (they would raise rather than embed).

Timing: each peer answers the first question once untimed (warm-up: connection pool,
query plan cache, index pages), then every question is timed with a wall clock around the
search call alone (perf_counter, ms), results formatting by the package included.
"""

import json
import sys
import time
import unicodedata
import warnings
from importlib.metadata import version
from typing import Any, Callable

import neo4j
from neo4j_graphrag.retrievers import HybridRetriever, VectorRetriever
from neo4j_graphrag.types import RetrieverResultItem

# neo4j-graphrag 1.22 warns on every search that the default 'id' result field (elementId) goes
# away in 2.0; we read Passage.id from the returned node map, not that field.
warnings.filterwarnings("ignore", category=DeprecationWarning)

MAX_WORDS = 256  # Lucene refuses queries of more than 1,024 clauses; graph-recall keeps 256 words.


def lucene_words(question: str) -> str:
    """apoc.text.join(split(trim(apoc.text.regreplace(toLower(q), '[^\\p{L}\\p{N}]+', ' ')), ' ')[0..256], ' ')"""
    chars = [c if unicodedata.category(c)[0] in ("L", "N") else " " for c in question.lower()]
    return " ".join("".join(chars).split()[:MAX_WORDS])


def passage_item(record: neo4j.Record) -> RetrieverResultItem:
    """result_formatter: with return_properties=['id'] the retrievers return `node {.id} AS node`
    (and, confusingly, `elementId(node) AS id`): the passage id is record['node']['id']."""
    return RetrieverResultItem(content=record["node"]["id"], metadata={"score": record["score"]})


def run_peer(questions: list[dict[str, Any]], search: Callable[[dict[str, Any]], list[str]]) -> list[dict[str, Any]]:
    if questions:
        search(questions[0])  # warm-up, not recorded
    out = []
    for q in questions:
        t0 = time.perf_counter()
        passages = search(q)
        ms = (time.perf_counter() - t0) * 1000
        out.append({"id": q["id"], "passages": passages, "ms": round(ms, 3)})
    return out


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: peers.py INPUT.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        inp = json.load(f)
    k = int(inp["k"])
    database = inp.get("database") or None
    questions = inp["questions"]
    for q in questions:
        q["words"] = lucene_words(q["question"])

    results: dict[str, list[dict[str, Any]]] = {}
    with neo4j.GraphDatabase.driver(inp["uri"], auth=(inp["user"], inp["password"])) as driver:
        driver.verify_connectivity()

        vector = VectorRetriever(
            driver, index_name="passage_embedding", return_properties=["id"], result_formatter=passage_item, neo4j_database=database
        )

        def vector_search(q: dict[str, Any]) -> list[str]:
            # query_vector only: passing query_text too would make VectorRetriever embed it (and fail, having no embedder).
            return [item.content for item in vector.search(query_vector=q["embedding"], top_k=k).items]

        results["neo4j-graphrag:vector"] = run_peer(questions, vector_search)

        hybrid = HybridRetriever(
            driver,
            vector_index_name="passage_embedding",
            fulltext_index_name="passage_text",
            return_properties=["id"],
            result_formatter=passage_item,
            neo4j_database=database,
        )

        def hybrid_search(q: dict[str, Any]) -> list[str]:
            # Default ranker (HybridSearchRanker.NAIVE, neo4j_graphrag/neo4j_queries.py _get_hybrid_query):
            # top_k nodes from the vector index (scores (1 + cos) / 2) and top_k from the full-text index
            # (Lucene BM25), each list divided by its own maximum score, UNION, a node keeps max() of its
            # two normalised scores, ORDER BY score DESC, elementId(node) LIMIT top_k. Both lists' first
            # hits score exactly 1.0 (tie broken by elementId); the rest of the vector list stays near 1
            # (cosines are bunched) while BM25 ratios fall off fast, so the fused list is mostly the dense one.
            if not q["words"]:
                # Nothing for Lucene (a question with no letter or number): the hybrid query would
                # fail to parse an empty query, so this is the dense half alone, as our hybrid does.
                return vector_search(q)
            return [item.content for item in hybrid.search(query_vector=q["embedding"], query_text=q["words"], top_k=k).items]

        results["neo4j-graphrag:hybrid"] = run_peer(questions, hybrid_search)

        bm25_query = "CALL db.index.fulltext.queryNodes('passage_text', $q, {limit: $k}) YIELD node RETURN node.id AS id"

        def bm25_search(q: dict[str, Any]) -> list[str]:
            if not q["words"]:
                return []
            records, _, _ = driver.execute_query(bm25_query, {"q": q["words"], "k": k}, database_=database, routing_=neo4j.RoutingControl.READ)
            return [r["id"] for r in records]

        results["bm25"] = run_peer(questions, bm25_search)

    versions = {
        "neo4j-graphrag": version("neo4j-graphrag"),
        "neo4j": version("neo4j"),
        "python": ".".join(map(str, sys.version_info[:3])),
    }
    json.dump({"versions": versions, "results": results}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
