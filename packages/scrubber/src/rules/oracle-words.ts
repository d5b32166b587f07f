// What an Oracle logon is made of: user names, unquoted passwords and where an argument ends.

/** Longest user, password or database part read. */
export const MAX_PART = 128;
/** Shorter passwords are taken for something else (`a/b`). */
export const MIN_PASSWORD = 3;

/** A character an unquoted password does not hold: blanks, quotes, `/`, `@` and shell or list syntax. */
export function endsPassword(code: number): boolean {
  return (
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 47 ||
    code === 64 ||
    code === 92 ||
    code === 40 ||
    code === 41 ||
    code === 44 ||
    code === 59 ||
    code === 60 ||
    code === 61 ||
    code === 62 ||
    code === 91 ||
    code === 93 ||
    code === 123 ||
    code === 124 ||
    code === 125
  );
}

/** A character of an unquoted Oracle user name (`scott`, `c##admin`, `app_owner$`). */
export function isUserCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 36 ||
    code === 35
  );
}

/** A character that ends an argument after a password (blank, closing quote, list punctuation, `;`). */
export function endsArgument(code: number): boolean {
  return (
    Number.isNaN(code) ||
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 44 ||
    code === 93 ||
    code === 59
  );
}
