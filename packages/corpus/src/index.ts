export * from "./participant-fields";
export * from "./participant-age";
export * from "./transcript-lines";
export * from "./chat/chat-settings";
export * from "./chat/english-numbers";
export * from "./chat/chat-utterances";
export * from "./chat/chat-file";
export * from "./chat/chat-rules";
