// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Connection = typeof import("./connection");

/** The server as the probe meets it: answering (even 503 is an answer) or not reachable at all. */
let serverUp = false;
const probes = vi.fn(async (_url: string, _init?: RequestInit) => {
  if (!serverUp) throw new TypeError("Failed to fetch");
  return new Response("", { status: 503 });
});

let connection: Connection;
let said: Array<[string, string]>;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.stubGlobal("fetch", probes);
  serverUp = false;
  probes.mockClear();
  // The connection is a module's state: each test starts from a fresh, connected one.
  vi.resetModules();
  connection = await import("./connection");
  said = [];
  (await import("./announce")).onAnnouncement((message, politeness) => said.push([message, politeness]));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** When the probes were sent, in ms after the connection was lost, over `ms` of lost connection. */
async function probeTimes(ms: number): Promise<number[]> {
  const times: number[] = [];
  for (let t = 0; t < ms; t += 100) {
    const before = probes.mock.calls.length;
    await vi.advanceTimersByTimeAsync(100);
    if (probes.mock.calls.length > before) times.push(t + 100);
  }
  return times;
}

describe("the connection (SPEC §7.3, decision 021)", () => {
  it("starts connected and says nothing", () => {
    expect(connection.connectionStatus()).toBe("connected");
    expect(said).toEqual([]);
  });

  it("a call without an answer loses it, announced once, assertively", () => {
    connection.reportNetworkFailure();
    connection.reportNetworkFailure();
    expect(connection.connectionStatus()).toBe("disconnected");
    expect(said).toEqual([["Cannot connect to the server. Please try again later.", "assertive"]]);
  });

  it("asks /healthz again 1 s, 2 s, 4 s, 8 s, then every 10 s apart", async () => {
    connection.reportNetworkFailure();
    expect(await probeTimes(46_000)).toEqual([1_000, 3_000, 7_000, 15_000, 25_000, 35_000, 45_000]);
    expect(probes).toHaveBeenCalledWith("/healthz", expect.objectContaining({ cache: "no-store" }));
    expect(connection.connectionStatus()).toBe("disconnected");
    expect(said).toHaveLength(1);
  });

  it("the first answer restores it: 'Connected again.' for 5 s, then connected", async () => {
    connection.reportNetworkFailure();
    serverUp = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(connection.connectionStatus()).toBe("reconnected");
    expect(said.at(-1)).toEqual([connection.RECONNECTED, "polite"]);
    expect(connection.RECONNECTED).toBe("Connected again.");
    await vi.advanceTimersByTimeAsync(4_900);
    expect(connection.connectionStatus()).toBe("reconnected");
    await vi.advanceTimersByTimeAsync(200);
    expect(connection.connectionStatus()).toBe("connected");
    // No more checks once it is back.
    const sent = probes.mock.calls.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(probes.mock.calls.length).toBe(sent);
  });

  it("any answer to another call restores it at once; while connected such answers change nothing", () => {
    connection.reportServerAnswer();
    expect(connection.connectionStatus()).toBe("connected");
    connection.reportNetworkFailure();
    connection.reportServerAnswer();
    expect(connection.connectionStatus()).toBe("reconnected");
    expect(said.map(([message]) => message)).toEqual([
      "Cannot connect to the server. Please try again later.",
      "Connected again.",
    ]);
  });

  it("lost again within the 5 s of 'Connected again.', it stays lost", async () => {
    connection.reportNetworkFailure();
    connection.reportServerAnswer();
    connection.reportNetworkFailure();
    await vi.advanceTimersByTimeAsync(6_000);
    expect(connection.connectionStatus()).toBe("disconnected");
  });

  it("the live socket closing checks the server: lost only when it does not answer", async () => {
    serverUp = true;
    connection.checkServer();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.connectionStatus()).toBe("connected");
    expect(said).toEqual([]);
    serverUp = false;
    connection.checkServer();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.connectionStatus()).toBe("disconnected");
  });

  it("tells its listeners of each change until they stop listening", () => {
    const seen: string[] = [];
    const stop = connection.subscribeConnection(() => seen.push(connection.connectionStatus()));
    connection.reportNetworkFailure();
    connection.reportServerAnswer();
    stop();
    connection.reportNetworkFailure();
    expect(seen).toEqual(["disconnected", "reconnected"]);
  });

  it("follows the browser's offline and online events, and holds mutations while lost", async () => {
    const stop = connection.watchConnection();
    expect(connection.sendsLater()).toBe(false);
    window.dispatchEvent(new Event("offline"));
    expect(connection.connectionStatus()).toBe("disconnected");
    expect(connection.sendsLater()).toBe(true);
    // 'online' only leads to a check, at once; the server's answer restores the connection.
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.connectionStatus()).toBe("disconnected");
    serverUp = true;
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.connectionStatus()).toBe("reconnected");
    expect(connection.sendsLater()).toBe(false);
    stop();
  });
});
