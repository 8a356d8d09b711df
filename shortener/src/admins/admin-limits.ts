/**
 * The sizes of an admin's name and password: one owner for the sign-in
 * routes' schema (which refuses anything longer) and for createsuperuser
 * (which must never create an admin who could not sign in).
 */
export const usernameMaxLength = 150;
export const passwordMinLength = 8;
export const passwordMaxLength = 1024;
