// Ingestion jobs (server/jobs): a write accepted with 202 is a (:Job) node, stored before the
// answer is sent; (:JobQueue) holds the queue's sequence number and the lease (owner, expiresAt)
// of the one server instance that runs jobs. Stable ids are their MERGE keys.
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (j:Job) REQUIRE j.id IS UNIQUE;
CREATE CONSTRAINT job_queue_id IF NOT EXISTS FOR (q:JobQueue) REQUIRE q.id IS UNIQUE;
// The runner's next job and the queue's bytes are found by status; retention by finishedAt.
CREATE INDEX job_status IF NOT EXISTS FOR (j:Job) ON (j.status);
CREATE INDEX job_finished IF NOT EXISTS FOR (j:Job) ON (j.finishedAt);
