/** The documented REST answer shape (SPEC §7.3). */
export interface RestResult {
  status?: string;
  success?: boolean;
  message?: string;
  [key: string]: unknown;
}

export const CONNECTION_ERROR = "Cannot connect to the server. Please try again later.";
