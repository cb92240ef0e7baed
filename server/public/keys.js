// The API keys the page sends as X-Api-Key, kept for this tab only (sessionStorage, never
// localStorage or a cookie). The read key is asked for when a read answers 401 (the server has
// READ_API_KEY set); the write key when the page first uploads. The write key reads too.
const READ = 'graph-recall.readKey';
const WRITE = 'graph-recall.writeKey';

function ask(storageKey, question) {
  const given = window.prompt(question);
  if (given === null || given.trim() === '') return null;
  sessionStorage.setItem(storageKey, given.trim());
  return given.trim();
}

function withKey(init, key) {
  const headers = new Headers(init?.headers);
  if (key) headers.set('x-api-key', key);
  return { ...init, headers };
}

/** A read (GET, or POST /v1/answer): with the key the tab holds; on 401, asks for the read key once and tries again. */
export async function readFetch(url, init) {
  const res = await fetch(url, withKey(init, sessionStorage.getItem(READ) ?? sessionStorage.getItem(WRITE)));
  if (res.status !== 401) return res;
  sessionStorage.removeItem(READ);
  const key = ask(READ, 'This server needs a read key (READ_API_KEY) for searches. Read key:');
  return key ? fetch(url, withKey(init, key)) : res;
}

/** A write: asks for the write key (API_KEY) when the tab has none, or when the server refused the one it had. */
export async function writeFetch(url, init) {
  const key = sessionStorage.getItem(WRITE) ?? ask(WRITE, "Uploading needs the server's write key (API_KEY). Write key:");
  if (!key) return null;
  const res = await fetch(url, withKey(init, key));
  if (res.status !== 401) return res;
  sessionStorage.removeItem(WRITE);
  const again = ask(WRITE, 'That write key was refused. Write key (API_KEY):');
  return again ? fetch(url, withKey(init, again)) : res;
}
