/** A TCP socket whose writes can be held and sent together (net.Socket). */
export interface CorkableSocket {
  cork(): void;
  uncork(): void;
}

/**
 * Sends the frames of one burst on `tcp` in one write: the returned function, called before each
 * frame is sent (and by a socket's session as the bus hands it each event, before its
 * subscriptions send theirs), corks the socket at the burst's first frame and uncorks it at the
 * next turn of the event loop (setImmediate, after the microtasks that send the rest), so a
 * change's several events, or a page of a resumed subscription's backlog, cost one system call
 * per connection, not one each.
 */
export function batchBurstWrites(tcp: CorkableSocket): () => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    tcp.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    tcp.cork();
    setImmediate(uncork);
  };
}
