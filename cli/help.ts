/** The command's `--help`: every flag, its variable and default, and examples (the docs test checks every flag the docs name is here). */

/**
 * What `petstore-service --help` prints.
 *
 * @example
 * process.stdout.write(HELP);
 */
export const HELP = `Usage: petstore-service [options]
       petstore-service init <dir>   (write an offline demo site, or the worker alone: init --help)

Serves the Pet Store API over HTTP under /v1. Pets and rate-limit counters live in
memory unless --data, --database-url or --redis says where to keep them.

Options:
  -p, --port <port>    TCP port (env PORT, default 8080; 0 picks a free one)
      --host <host>    interface to bind (env HOST, default 127.0.0.1)
  -k, --key <k:plan>   an API key and its plan; repeatable (env PETSTORE_API_KEYS,
                       comma-separated). Plans: free, pro, business,
                       enterprise:PER_MINUTE:PER_DAY. Without keys, one free key is
                       generated and printed.
      --data <dir>     keep pets and limits in PGlite (PostgreSQL in WebAssembly) in
                       this directory (env PETSTORE_DATA), created if missing (the
                       first start takes a few seconds). Needs @electric-sql/pglite
      --database-url <url>
                       keep pets and limits in PostgreSQL (env DATABASE_URL), shared
                       by every instance using it; tables are created on start.
                       Needs postgres. Not with --data
      --redis <url>    keep limits in Redis (env REDIS_URL), and pets too unless
                       --data or --database-url is given. Needs redis
      --trust-proxy <n|ranges>
                       behind a proxy: believe X-Forwarded-For from this many proxies in
                       front, or from these addresses and CIDR ranges, comma-separated
                       (env PETSTORE_TRUST_PROXY). Default: none, the peer is the caller
      --proxy-header <name>
                       with --trust-proxy: the one header they are believed in,
                       x-forwarded-for (default) or forwarded; the other is
                       ignored (env PETSTORE_PROXY_HEADER)
      --admin-token <t>
                       turn on the admin API under /__admin (env PETSTORE_ADMIN_TOKEN, 16+
                       characters: letters, digits, -._~+/, = at the end): reset, seed,
                       clock, faults and the request journal over HTTP, with
                       Authorization: Bearer <t>. In-memory stores only
      --sandboxes <n>  with --admin-token: the most sandboxes (worlds of their own, opened
                       with POST /__admin/sandboxes) at once, default 1000
      --sandbox-idle <minutes>
                       with --admin-token: delete a sandbox unused this long, default 30
      --journal <n>    with --admin-token: the requests each journal keeps, default 10000
      --journal-mib <n>
                       with --admin-token: the MiB all journals keep together (every
                       sandbox's and the main one), oldest out first, 1..1024, default 16
      --pets <n>       with --admin-token: the most pets in all worlds together (every
                       sandbox's and the main one; more is a 507), 1..10000000,
                       default 250000
      --delay <ms|min-max>
                       for demos: answer every request this much later; a range
                       (100-400) draws each request's delay from it
      --fail-rate <r>  for demos: answer this share of requests (0..1) with 503
      --generate <count>[:<seed>]
                       start with this many realistic pets (1..10000), the same for the
                       same count and seed (default 1) everywhere (env PETSTORE_GENERATE).
                       With --data, --database-url or --redis: only if the store is empty
      --log <format>   the access log on stdout, one line per request: text
                       (default; GET /v1/pets?limit=7 200 1.2ms 127.0.0.1) or json
                       (one object per line). Never a key or a header value
      --metrics        serve Prometheus text at GET /metrics on the same port
                       (env PETSTORE_METRICS=1): requests by method, route and status with
                       their durations, refusals, process CPU and memory. No key guards it
                       unless --metrics-token: keep the port private. Each address may
                       scrape 60 times a minute. Needs @opentelemetry/api,
                       @opentelemetry/sdk-metrics, @opentelemetry/exporter-prometheus,
                       @opentelemetry/host-metrics
      --metrics-token <t>
                       with --metrics: answer /metrics only with Authorization: Bearer <t>
                       (env PETSTORE_METRICS_TOKEN, 16+ characters as for --admin-token)
      --cors <origins> let pages on these origins call the API from a browser: * or
                       comma-separated origins (env PETSTORE_CORS), e.g.
                       https://app.example,http://localhost:5173. Their preflights
                       for a server on loopback or a private address are answered
                       too (Private Network Access). Default: none
      --ban-hold-ms <ms>
                       send a banned caller's 429 this much later (0: at once), so
                       a flood costs timers, not requests. Default 1000
  -q, --quiet          no access log (the lines printed on start and errors stay)
  -v, --version        print the version
  -h, --help           show this help

Examples:
  # on http://127.0.0.1:8080/v1, with a generated free-plan key it prints
  petstore-service
  # on port 3000, with two keys of your own, and no access log
  petstore-service --port 3000 --key dev-key:pro --key ci-key:free --quiet
  # a fake backend for end-to-end tests, controlled over HTTP under /__admin (make your
  # own token: openssl rand -base64 24)
  PETSTORE_API_KEYS=e2e-key:free PETSTORE_ADMIN_TOKEN=my-admin-token-0123 petstore-service
  # a slow, flaky backend with 200 pets for a demo: each answer 100 to 400 ms late, one in ten a 503
  petstore-service --generate 200 --delay 100-400 --fail-rate 0.1
  # pets and limits kept in ./petstore-data across restarts
  petstore-service --data ./petstore-data
  # pets and limits in PostgreSQL, shared by every instance started this way
  DATABASE_URL=postgres://petstore:secret@db.internal:5432/petstore petstore-service
  # pets in PostgreSQL, limits in Redis
  petstore-service --database-url postgres://petstore:secret@db.internal/petstore --redis redis://cache.internal:6379
  # pets and limits in Redis
  REDIS_URL=redis://:secret@cache.internal:6379 petstore-service

Flags show in ps to every user of the machine: give keys and tokens in
PETSTORE_API_KEYS, PETSTORE_ADMIN_TOKEN and PETSTORE_METRICS_TOKEN anywhere but your
own machine.

A store that cannot be reached or opened is named in one line on stderr (host and
port, never a password), with exit code 2.
`;
