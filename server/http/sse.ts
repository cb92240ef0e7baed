import type { Response } from 'express';

/**
 * Server-Sent Events with bounded buffering: when the socket's buffer is
 * full, writing waits for 'drain', so a slow client slows the generation
 * instead of growing memory.
 */
export class SseWriter {
  private closed = false;
  constructor(
    private readonly res: Response,
    heartbeatMs: number,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const beat = setInterval(() => void this.raw(': heartbeat\n\n'), heartbeatMs);
    res.on('close', () => {
      this.closed = true;
      clearInterval(beat);
    });
  }

  async send(event: string, data: unknown): Promise<void> {
    await this.raw(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private async raw(chunk: string): Promise<void> {
    if (this.closed) return;
    if (!this.res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.res.off('drain', done);
          this.res.off('close', done);
          resolve();
        };
        this.res.on('drain', done);
        this.res.on('close', done);
      });
    }
  }

  end(): void {
    if (!this.closed) this.res.end();
  }
}
