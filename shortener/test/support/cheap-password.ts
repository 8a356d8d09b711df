/**
 * People's passwords hashed as the service does (argon2id), at the least
 * cost argon2 allows: a test that signs in a few people pays milliseconds,
 * not the production cost of each hash; the rules are the same.
 */
export const cheapPasswordHash = (password: string): Promise<string> => Bun.password.hash(password, { algorithm: "argon2id", memoryCost: 8, timeCost: 1 });
