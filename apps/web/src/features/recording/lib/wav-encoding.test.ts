import { describe, expect, it } from "vitest";
import { toInt16, wavHeader } from "./wav-encoding";

describe("toInt16 (a sample in -1..1 as 16-bit PCM)", () => {
  it("maps full scale to the ends of the 16-bit range and 0 to 0", () => {
    expect(toInt16(1)).toBe(32767);
    expect(toInt16(-1)).toBe(-32768);
    expect(toInt16(0)).toBe(0);
    expect(toInt16(0.5)).toBe(16384);
    expect(toInt16(-0.5)).toBe(-16384);
  });

  it("clips samples outside -1..1 and treats NaN as silence", () => {
    expect(toInt16(1.7)).toBe(32767);
    expect(toInt16(-3)).toBe(-32768);
    expect(toInt16(Number.NaN)).toBe(0);
  });
});

describe("wavHeader (the 44-byte header of a mono 16-bit PCM WAV file)", () => {
  const text = (view: DataView, offset: number) =>
    String.fromCharCode(...Array.from({ length: 4 }, (_, i) => view.getUint8(offset + i)));

  it("describes the samples: RIFF/WAVE, PCM, one channel, the rate, 16 bits, the data size", () => {
    const header = wavHeader(22_050, 22_050);
    const view = new DataView(header);
    expect(header.byteLength).toBe(44);
    expect([text(view, 0), text(view, 8), text(view, 12), text(view, 36)]).toEqual(["RIFF", "WAVE", "fmt ", "data"]);
    expect(view.getUint32(4, true)).toBe(36 + 44_100);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(22_050);
    expect(view.getUint32(28, true)).toBe(44_100);
    expect(view.getUint16(32, true)).toBe(2);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(44_100);
  });

  it("allows an empty file", () => {
    expect(new DataView(wavHeader(0, 8000)).getUint32(40, true)).toBe(0);
  });

  it("refuses a bad rate or count, and audio too long for 32-bit sizes", () => {
    expect(() => wavHeader(10, 0)).toThrow("The sample rate must be a positive integer, not 0.");
    expect(() => wavHeader(10, 44_100.5)).toThrow(RangeError);
    expect(() => wavHeader(-1, 8000)).toThrow("The sample count must be a whole number, not -1.");
    expect(() => wavHeader(2.5, 8000)).toThrow(RangeError);
    expect(() => wavHeader(2 ** 31 - 18, 22_050)).toThrow("The audio is too long for a WAV file.");
    expect(new DataView(wavHeader(2 ** 31 - 19, 22_050)).getUint32(4, true)).toBe(0xfffffffe);
  });
});
