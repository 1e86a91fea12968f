/** SPEC §8: what review mode says when a review or a comment failed without a message from the server. */
export const UNEXPECTED = "An unexpected error occurred. Please try again.";
