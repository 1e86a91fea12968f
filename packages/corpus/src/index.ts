export * from "./participant-fields";
export * from "./participant-age";
export * from "./transcript-lines";
