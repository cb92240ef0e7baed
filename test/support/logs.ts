import { Writable } from 'node:stream';

/** One line of the server's JSON log (pino). */
export interface LogLine {
  level: number;
  msg: string;
}

/** A destination for createLogger / pino that keeps every line, parsed, in `lines` (in order). */
export function logSink(): { sink: Writable; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      cb();
    },
  });
  return { sink, lines };
}
