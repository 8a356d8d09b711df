-- A link's visits report readable by anyone (docs/people.md: "Private by
-- default"). Adding a column with a constant default rewrites no row.
ALTER TABLE `links` ADD `public_stats` integer DEFAULT false NOT NULL;
