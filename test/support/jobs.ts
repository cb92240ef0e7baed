/** A job as GET /v1/jobs/:id returns it. */
export interface Job {
  id: string;
  kind: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  submittedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: { done: number; total: number };
  documents: string[];
  result: Record<string, any> | null;
  error: { code: string; message: string } | null;
}

/** Polls GET `location` until the job is finished; every answer on the way is a 200 with a queued or running job. */
export async function waitForJob(baseUrl: string, location: string, onPoll?: (job: Job) => void, deadlineMs = 600_000): Promise<Job> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await fetch(`${baseUrl}${location}`);
    if (res.status !== 200) throw new Error(`GET ${location}: ${res.status} ${await res.text()}`);
    const { job } = (await res.json()) as { job: Job };
    onPoll?.(job);
    if (job.status !== 'queued' && job.status !== 'running') return job;
    if (Date.now() > deadline) throw new Error(`job ${job.id} still ${job.status} (${JSON.stringify(job.progress)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
