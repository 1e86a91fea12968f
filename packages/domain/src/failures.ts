/**
 * SPEC §7.3, §8: what every unexpected failure says, on the server's answer and on a screen whose
 * call failed without a message of its own: never a stack trace or an internal error's text.
 */
export const UNEXPECTED_ERROR = "An unexpected error occurred. Please try again.";
