/** Sample rate of the test and benchmark WAV files: mono 16-bit PCM at 8 kHz (16,000 bytes a second). */
const SAMPLE_RATE = 8000;

/**
 * The 44-byte header of a mono 16-bit PCM WAV file at 8 kHz whose data chunk holds `dataBytes`
 * bytes (RIFF, a 16-byte fmt chunk, then the data chunk's id and size): what the server's content
 * sniffing reads to accept a file as audio.
 */
export function wavHeader(dataBytes: number): Uint8Array<ArrayBuffer> {
  const buffer = new ArrayBuffer(44);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE, true); // sample rate
  view.setUint32(28, SAMPLE_RATE * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  return new Uint8Array(buffer);
}

/**
 * A whole WAV file (wavHeader, then `dataBytes` bytes of samples) as a Buffer; each data byte is
 * `fill(offset)` for its offset in the file (from 44), silence (0) without `fill`.
 */
export function wavFile(dataBytes: number, fill?: (offset: number) => number): Buffer {
  const file = Buffer.alloc(44 + dataBytes);
  file.set(wavHeader(dataBytes));
  if (fill) for (let i = 44; i < file.length; i++) file[i] = fill(i) & 0xff;
  return file;
}
