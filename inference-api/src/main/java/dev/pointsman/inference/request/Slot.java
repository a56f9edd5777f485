package dev.pointsman.inference.request;

/** What the next JSON value means to the extractor, by the key or array it sits in. */
enum Slot {
  NONE,
  MODEL,
  STREAM,
  STREAM_OPTIONS,
  INCLUDE_USAGE,
  MESSAGES,
  MESSAGE,
  CONTENT,
  PART,
  TEXT,
  INSTRUCTIONS,
  PROMPT,
  PROMPT_ELEMENT,
  INPUT,
  INPUT_ELEMENT,
  TOKEN,
  MAX_TOKENS,
  MAX_NEW_TOKENS;

  /** The frame an object in this slot opens, or null to skip the object. */
  Frame objectFrame() {
    return switch (this) {
      case STREAM_OPTIONS -> Frame.STREAM_OPTIONS;
      case MESSAGE, INPUT_ELEMENT -> Frame.MESSAGE;
      case PART -> Frame.PART;
      default -> null;
    };
  }

  /** The frame an array in this slot opens, or null to skip the array. */
  Frame arrayFrame() {
    return switch (this) {
      case MESSAGES -> Frame.MESSAGES;
      case CONTENT -> Frame.PARTS;
      case PROMPT -> Frame.PROMPT_LIST;
      case INPUT -> Frame.INPUT_LIST;
      case PROMPT_ELEMENT, INPUT_ELEMENT -> Frame.TOKENS;
      default -> null;
    };
  }

  /** Whether a string here is prompt text (instructions excepted). */
  boolean isText() {
    return switch (this) {
      case CONTENT, PART, TEXT, PROMPT, PROMPT_ELEMENT, INPUT, INPUT_ELEMENT -> true;
      default -> false;
    };
  }

  /** Whether an integer here is a prompt token id. */
  boolean isToken() {
    return this == TOKEN || this == PROMPT_ELEMENT || this == INPUT_ELEMENT;
  }
}
