-- One row that /ready writes while writes are failing, to see whether the database takes them again.
CREATE TABLE IF NOT EXISTS "write_probe" (
  "id" integer PRIMARY KEY,
  "at" timestamp(3) with time zone NOT NULL
);
