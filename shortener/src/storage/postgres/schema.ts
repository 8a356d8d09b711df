import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const links = pgTable("links", {
  code: text("code").primaryKey(),
  longUrl: text("long_url").notNull(),
  manageTokenHash: text("manage_token_hash").notNull(),
  accessCount: bigint("access_count", { mode: "number" }).notNull().default(0),
  lastAccessedAt: timestamp("last_accessed_at", { withTimezone: true, precision: 3 }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

export const admins = pgTable("admins", {
  username: text("username").primaryKey(),
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
});

export const adminSessions = pgTable("admin_sessions", {
  idHash: text("id_hash").primaryKey(),
  username: text("username").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
});
