import path from 'node:path';

// Every setting the service reads, in one place; README "Settings" lists the same names.
export type Settings = ReturnType<typeof readSettings>;

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function ports(name: string): number[] {
  return list(name).map((raw) => {
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`${name} must list port numbers, got "${raw}"`);
    return port;
  });
}

function list(name: string): string[] {
  return (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevelSetting = (typeof LOG_LEVELS)[number];

/**
 * LOG_LEVEL: the least severe events written (default info), and the value refused if it names no
 * level. Read apart from the other settings: the log must work when another setting is wrong, to
 * say so.
 */
export function readLogLevel(): { level: LogLevelSetting; refused?: string } {
  const wanted = (process.env.LOG_LEVEL || 'info').trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(wanted) ? { level: wanted as LogLevelSetting } : { level: 'info', refused: process.env.LOG_LEVEL };
}

export function readSettings() {
  const limitsOn = process.env.LIMITS !== 'off';
  return {
    port: int('PORT', 3000),
    host: process.env.HOST || '0.0.0.0',
    databaseUrl: process.env.DATABASE_URL || undefined,
    // The serving process's connections: each storefront read's queries hold one until the event
    // loop takes their answer (docs/decisions.md, session 43).
    databasePoolSize: int('DATABASE_POOL_SIZE', 20),
    dataDir: path.resolve(process.env.DATA_DIR || '.data'),
    workers: process.env.WORKERS !== 'off',
    // `off`: listings and collections go through Next.js like every other request, rather than
    // straight to their route handlers (lib/http/direct-routes.ts); the answers are the same.
    directRoutes: process.env.DIRECT_ROUTES !== 'off',
    limits: {
      enabled: limitsOn,
      bodyBytes: int('BODY_LIMIT_BYTES', 36_700_160),
      writesPerMinute: int('RATE_LIMIT_PER_MINUTE', 40),
      readsPerMinute: int('READ_RATE_LIMIT_PER_MINUTE', 6000),
      authFailuresPerMinute: int('AUTH_FAILURES_PER_MINUTE', 30),
    },
    webhooks: {
      allowHosts: list('WEBHOOK_ALLOW_HOSTS'),
      retryLimit: int('WEBHOOK_RETRY_LIMIT', 5),
      retryDelaySeconds: int('WEBHOOK_RETRY_DELAY_SECONDS', 30),
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000),
      // Outbound requests (webhooks, image originals) go to ports 80 and 443, and these.
      allowPorts: ports('OUTBOUND_ALLOW_PORTS'),
      dnsTimeoutMs: int('DNS_TIMEOUT_MS', 5_000),
    },
    mail: {
      smtpUrl: process.env.SMTP_URL || undefined,
      from: process.env.MAIL_FROM || 'Vitrine <vitrine@localhost>',
    },
    images: {
      cacheDir: path.resolve(process.env.IMAGE_CACHE_DIR || path.join(process.env.DATA_DIR || '.data', 'images')),
      cacheBytes: int('IMAGE_CACHE_BYTES', 1024 * 1024 * 1024),
      timeoutMs: int('IMAGE_FETCH_TIMEOUT_MS', 10_000),
    },
    listing: {
      // Listing indexes of every shop in this process together; the least recently used are dropped above it.
      memoryBytes: int('LISTING_MEMORY_MB', 2048) * 1024 * 1024,
      // Storefront reads a process answers at once; past it, 503 (0: no limit). And how long the
      // oldest of 16 or more may have run before new ones get 503 (lib/listing/in-flight.ts).
      maxInFlight: int('LISTING_MAX_IN_FLIGHT', 256),
      shedAfterMs: int('LISTING_SHED_AFTER_MS', 1000),
    },
    publicUrl: process.env.PUBLIC_URL || undefined,
    sessionDays: int('SESSION_DAYS', 14),
    importSweepSeconds: int('IMPORT_SWEEP_SECONDS', 10),
    importBodyRetentionDays: int('IMPORT_BODY_RETENTION_DAYS', 30),
    // The nice value of the job workers' thread (and, with the embedded database, of its
    // PostgreSQL backends): imports give way to storefront reads. 0: the same as the others.
    workersNice: int('WORKERS_NICE', 10),
    // `parse`: every item is parsed and checked as an object, none read from its bytes (to time
    // or rule out the byte reader; bench:import --general).
    itemReader: process.env.ITEM_READER === 'parse' ? ('parse' as const) : ('bytes' as const),
    // Nice values of the thread preparing imports' items ahead and of the one scanning large
    // request bodies (0: the same as the others).
    prepareThreadNice: int('PREPARE_THREAD_NICE', 0),
    scanThreadNice: int('SCAN_THREAD_NICE', 10),
    // 32 bytes, hex or base64, sealing shop secrets; unset: a key generated once, kept in the database.
    secretKey: process.env.SECRET_KEY || undefined,
    // Log each import step's wall time.
    importTimings: process.env.IMPORT_TIMINGS === '1',
    // GET /metrics asks for `Authorization: Bearer <token>` when set. `npm run worker` serves its
    // own metrics on METRICS_PORT when set (0: any free port; web processes serve them on PORT).
    metricsToken: process.env.METRICS_TOKEN || undefined,
    metricsPort: process.env.METRICS_PORT ? int('METRICS_PORT', 0) : undefined,
    // Never run `next build` at start (test harnesses build once and start many servers).
    skipBuild: process.env.VITRINE_SKIP_BUILD === '1',
  };
}
