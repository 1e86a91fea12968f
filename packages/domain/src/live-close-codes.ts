/**
 * The close codes of the live-events WebSocket (`/trpc`): the server's loop closes a socket with
 * them and the web app's client reads them (decisions 004, 012 and 029). 4000-4999 are the
 * application's own codes; 1012 is the standard "Service Restart".
 */

/**
 * Decision 012: the socket's session ended ('Sign out everywhere', a new password, reactivation),
 * expired, or its token was refused on connect. The client drops the session and does not reconnect.
 */
export const SESSION_ENDED_CLOSE_CODE = 4401;

/** Decisions 004 and 012: the socket's user was deactivated. The client drops the session and does not reconnect. */
export const DEACTIVATED_CLOSE_CODE = 4403;

/** Decision 029: the instance is stopping (an upgrade); the client reconnects at once, to another instance. */
export const SERVICE_RESTART_CLOSE_CODE = 1012;
