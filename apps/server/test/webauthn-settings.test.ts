import { describe, expect, it } from "vitest";
import { loadSettings, webauthnSettings } from "../src/settings";

/**
 * Decision 038: the WebAuthn relying party of the settings. WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN
 * default to PUBLIC_URL's host and origin, else localhost and http://localhost:{PORT}; an RP ID
 * must be a domain, an origin has no path, and the origin's host must be the RP ID or under it.
 */
describe("WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN (decision 038)", () => {
  it("default to localhost and http://localhost:{PORT}, named after the programme", () => {
    expect(webauthnSettings(loadSettings({}))).toEqual({
      rpId: "localhost",
      origin: "http://localhost:3000",
      rpName: "Tafsiri",
    });
    expect(webauthnSettings(loadSettings({ PORT: "8080", PROGRAMME_NAME: "Memory Voices Study" }))).toEqual({
      rpId: "localhost",
      origin: "http://localhost:8080",
      rpName: "Memory Voices Study",
    });
  });

  it("default to PUBLIC_URL's host and origin", () => {
    expect(webauthnSettings(loadSettings({ PUBLIC_URL: "https://tafsiri.example.org:8443/app/" }))).toMatchObject({
      rpId: "tafsiri.example.org",
      origin: "https://tafsiri.example.org:8443",
    });
  });

  it("take a parent domain as the RP ID, and an origin's trailing slash off", () => {
    const settings = loadSettings({
      PUBLIC_URL: "https://tafsiri.example.org",
      WEBAUTHN_RP_ID: "Example.org",
      WEBAUTHN_ORIGIN: "https://tafsiri.example.org/",
    });
    expect(webauthnSettings(settings)).toMatchObject({ rpId: "example.org", origin: "https://tafsiri.example.org" });
  });

  it("refuse an IP address, an origin with a path, and an origin outside the RP ID", () => {
    expect(() => loadSettings({ WEBAUTHN_RP_ID: "127.0.0.1" })).toThrow(/WEBAUTHN_RP_ID must be a domain name/);
    expect(() => loadSettings({ WEBAUTHN_ORIGIN: "https://tafsiri.example.org/app" })).toThrow(
      /WEBAUTHN_ORIGIN must be an origin/,
    );
    expect(() => loadSettings({ WEBAUTHN_RP_ID: "example.org", WEBAUTHN_ORIGIN: "https://evil-example.org" })).toThrow(
      /must be WEBAUTHN_RP_ID \(example.org\) or a subdomain of it/,
    );
  });
});
