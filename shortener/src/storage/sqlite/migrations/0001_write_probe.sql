-- Rows that /ready writes (and deletes) while writes are failing, to see whether the database takes them again.
CREATE TABLE IF NOT EXISTS `write_probe` (
  `id` integer PRIMARY KEY,
  `at` integer NOT NULL,
  `filler` blob
);
