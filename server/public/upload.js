// Upload a document as a job (POST /v1/documents with Prefer: respond-async) and show the job's
// progress, polled from GET /v1/jobs/:id until it is done, failed or cancelled.
import { readFetch, writeFetch } from './keys.js';

const POLL_MS = 500;
const $ = (id) => document.getElementById(id);

// Every job state the page showed, for people and for the browser test.
window.__jobs = [];

function show(job) {
  window.__jobs.push(job);
  const { done, total } = job.progress;
  const bar = $('upload-progress');
  bar.hidden = false;
  bar.max = Math.max(total, 1);
  bar.value = job.status === 'done' ? bar.max : done;
  const counts = job.result?.passages !== undefined ? `: ${job.result.passages} passages, ${job.result.entities} new entities` : '';
  const why = job.error ? `: ${job.error.message}` : '';
  const status = $('upload-status');
  status.dataset.status = job.status;
  status.dataset.job = job.id;
  status.textContent = `job ${job.id} ${job.status}, ${done}/${total} passages${counts}${why}`;
}

async function errorText(res) {
  const body = await res.json().catch(() => ({}));
  return body.error ? body.error.message : `HTTP ${res.status}`;
}

/** Polls the job until it has finished; then the source list may have a new entry. */
async function follow(location, onFinished) {
  for (;;) {
    const res = await readFetch(location);
    if (!res.ok) {
      $('upload-status').textContent = `could not read the job: ${await errorText(res)}`;
      return;
    }
    const { job } = await res.json();
    show(job);
    if (job.status !== 'queued' && job.status !== 'running') return onFinished(job);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function upload(onFinished) {
  const file = $('upload-file').files[0];
  const text = file ? await file.text() : $('upload-text').value;
  const title = $('upload-title').value.trim() || (file ? file.name.replace(/\.[^.]+$/, '') : '');
  const status = $('upload-status');
  if (!title || !text.trim()) {
    status.textContent = 'a document needs a title and some text (or a file)';
    return;
  }
  status.textContent = 'sending...';
  const res = await writeFetch('/v1/documents', {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ documents: [{ title, text, source: 'page' }] }),
  });
  if (!res) {
    status.textContent = 'not sent: uploading needs the write key';
    return;
  }
  if (res.status !== 202) {
    status.textContent = `not accepted: ${await errorText(res)}`;
    return;
  }
  const { job } = await res.json();
  show(job);
  await follow(res.headers.get('location'), onFinished);
}

/** Wires the upload form; `onFinished(job)` runs when a job has finished. */
export function setUpUpload(onFinished) {
  $('upload').addEventListener('submit', (e) => {
    e.preventDefault();
    upload(onFinished).catch((err) => {
      $('upload-status').textContent = String(err);
    });
  });
}
