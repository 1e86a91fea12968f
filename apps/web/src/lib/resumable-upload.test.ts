import { describe, expect, it } from "vitest";
import { ProgressMeter } from "./resumable-upload";

const MB = 1024 * 1024;

describe("ProgressMeter (decision 020: an upload's rate and time left)", () => {
  it("knows no rate nor time left at the first report, nor within 0.2 s", () => {
    const meter = new ProgressMeter();
    expect(meter.measure(0, 20 * MB, 1000)).toEqual({
      bytesSent: 0,
      bytesTotal: 20 * MB,
      bytesPerSecond: 0,
      secondsLeft: null,
    });
    expect(meter.measure(MB, 20 * MB, 1200)).toMatchObject({ bytesPerSecond: 0, secondsLeft: null });
  });

  it("measures the rate since the first report, and the time left at that rate", () => {
    const meter = new ProgressMeter();
    meter.measure(0, 20 * MB, 0);
    expect(meter.measure(2 * MB, 20 * MB, 1000)).toEqual({
      bytesSent: 2 * MB,
      bytesTotal: 20 * MB,
      bytesPerSecond: 2 * MB,
      secondsLeft: 9,
    });
    expect(meter.measure(4 * MB, 20 * MB, 4000)).toMatchObject({ bytesPerSecond: MB, secondsLeft: 16 });
  });

  it("follows a change of speed within 5 s: older reports are forgotten", () => {
    const meter = new ProgressMeter();
    // 1 MB/s for 10 s, then 3 MB/s.
    const sentAt = (t: number) => (t <= 10 ? t : 10 + 3 * (t - 10)) * MB;
    const at = (t: number) => meter.measure(sentAt(t), 100 * MB, t * 1000);
    for (let t = 0; t <= 12; t += 1) at(t);
    // Three seconds after the change, the window holds both paces: (19 - 8) MB over 5 s.
    expect(at(13).bytesPerSecond).toBeCloseTo(2.2 * MB);
    at(14);
    const five = at(15);
    expect(five.bytesPerSecond).toBe(3 * MB);
    expect(five.secondsLeft).toBe((100 - 25) / 3);
  });

  it("keeps two reports at least, however far apart", () => {
    const meter = new ProgressMeter();
    meter.measure(0, 10 * MB, 0);
    expect(meter.measure(6 * MB, 10 * MB, 60_000).bytesPerSecond).toBe(MB / 10);
  });

  it("never gives a negative rate when the server acknowledged less than before", () => {
    const meter = new ProgressMeter();
    meter.measure(5 * MB, 10 * MB, 0);
    expect(meter.measure(4 * MB, 10 * MB, 1000)).toMatchObject({ bytesPerSecond: 0, secondsLeft: null });
  });

  it("after a reset (Pause), measures afresh from the next report", () => {
    const meter = new ProgressMeter();
    meter.measure(0, 20 * MB, 0);
    meter.measure(MB, 20 * MB, 1000);
    meter.reset();
    expect(meter.measure(MB, 20 * MB, 30_000)).toMatchObject({ bytesPerSecond: 0, secondsLeft: null });
    expect(meter.measure(3 * MB, 20 * MB, 31_000)).toMatchObject({ bytesPerSecond: 2 * MB, secondsLeft: 8.5 });
  });
});
