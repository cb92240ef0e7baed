import pino from 'pino';

/** JSON logs at the given level (config.logLevel); credentials are redacted wherever they appear in a logged object. */
export function createLogger(level: string) {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.password', '*.apiKey', 'apiKey', '*.readApiKey', 'readApiKey', 'password'],
      censor: '[redacted]',
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
