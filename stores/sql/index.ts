/** petstore-service/sql: pets and rate limits in PostgreSQL (through `postgres`) or PGlite, migrated on start. */
export { pgliteClient, postgresClient, type PostgresClientOptions, type Row, type SqlClient } from './client.ts';
export { migrate } from './migrations.ts';
export { sqlPetStorage } from './pet-storage.ts';
export { sqlLimitStore } from './limit-store.ts';
