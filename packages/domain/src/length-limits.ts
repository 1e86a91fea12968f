/**
 * The longest texts and files the server takes, with the messages that say so: the API's zod
 * schemas refuse past them and the web app's inputs stop at them (`maxLength`, counters), so both
 * read the numbers from here.
 */

/** SPEC §2.14, §5: the longest comment, in characters after trimming. */
export const COMMENT_MAX_LENGTH = 5_000;
/** SPEC §5: the message for a comment over COMMENT_MAX_LENGTH. */
export const COMMENT_TOO_LONG = "Comment is too long (at most 5,000 characters).";
/** SPEC §2.14, §5: the message for a whitespace-only comment. */
export const COMMENT_EMPTY = "Comment is empty.";

/** SPEC §4: the longest reason a reviewer may give with a rejection, in characters after trimming. */
export const REVIEW_REASON_MAX_LENGTH = 1_000;
/** SPEC §4: the message for a rejection reason over REVIEW_REASON_MAX_LENGTH. */
export const REVIEW_REASON_TOO_LONG = "The reason may be at most 1,000 characters.";

/**
 * SPEC §2.12: the longest transcript, in characters (UTF-16 code units, as JavaScript counts them).
 * The JSON body limit of /trpc admits this many at their worst encoding (apps/server's body-limits plugin).
 */
export const TRANSCRIPT_MAX_CHARS = 2_000_000;
/** SPEC §2.12: the message for a transcript over TRANSCRIPT_MAX_CHARS. */
export const TRANSCRIPT_TOO_LONG = "The transcript may be at most 2,000,000 characters.";
/** SPEC §5, §8: the message for an empty or whitespace-only transcript. */
export const TRANSCRIPT_EMPTY = "Transcript is empty.";

/** SPEC §2.3, §5: the longest search keyword, in characters. */
export const SEARCH_KEYWORD_MAX_LENGTH = 200;
/** SPEC §5: the message for a search keyword over SEARCH_KEYWORD_MAX_LENGTH. */
export const SEARCH_KEYWORD_TOO_LONG = "Search keyword is too long (200 characters at most).";

/** Decision 024: the largest consent document, in bytes (10 MB). */
export const CONSENT_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Decision 024: the browser's message for a chosen consent document over CONSENT_DOCUMENT_MAX_BYTES. */
export const CONSENT_DOCUMENT_TOO_LARGE = "The consent document is larger than 10 MB.";
/** Decision 024: the message for a consent document that is not a PDF (the server checks its content). */
export const CONSENT_DOCUMENT_NOT_PDF = "The consent document must be a PDF file.";

/** Decision 024: the largest participants CSV an import takes, in characters of text (about 2 MB). */
export const PARTICIPANTS_CSV_MAX_CHARS = 2_000_000;
/** Decision 024: the message for a participants CSV over PARTICIPANTS_CSV_MAX_CHARS. */
export const PARTICIPANTS_CSV_TOO_LARGE = "The CSV file is larger than 2 MB.";
