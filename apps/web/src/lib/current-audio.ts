/** SPEC §2.1: the current audio of the audiomanagement screens lives in local storage. */
const KEY = "tafsiri-current-audio";

export function getCurrentAudioId(): string | null {
  return localStorage.getItem(KEY);
}

export function setCurrentAudioId(id: string): void {
  localStorage.setItem(KEY, id);
}
