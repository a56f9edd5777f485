package dev.pointsman.inference.request;

/** An open object or array the extractor looks into. */
enum Frame {
  ROOT,
  STREAM_OPTIONS,
  MESSAGE,
  PART,
  MESSAGES,
  PARTS,
  PROMPT_LIST,
  INPUT_LIST,
  TOKENS;

  /** Whether this frame is an array (its values take {@link #elementSlot()}). */
  boolean isArray() {
    return ordinal() >= MESSAGES.ordinal();
  }

  /** The slot of each element of an array frame. */
  Slot elementSlot() {
    return switch (this) {
      case MESSAGES -> Slot.MESSAGE;
      case PARTS -> Slot.PART;
      case PROMPT_LIST -> Slot.PROMPT_ELEMENT;
      case INPUT_LIST -> Slot.INPUT_ELEMENT;
      case TOKENS -> Slot.TOKEN;
      default -> Slot.NONE;
    };
  }

  /** The slot of the value under {@code key} in an object frame. */
  Slot fieldSlot(String key) {
    return switch (this) {
      case ROOT -> rootSlot(key);
      case STREAM_OPTIONS -> "include_usage".equals(key) ? Slot.INCLUDE_USAGE : Slot.NONE;
      case MESSAGE -> "content".equals(key) ? Slot.CONTENT : Slot.NONE;
      case PART -> "text".equals(key) ? Slot.TEXT : Slot.NONE;
      default -> Slot.NONE;
    };
  }

  private static Slot rootSlot(String key) {
    return switch (key) {
      case "model" -> Slot.MODEL;
      case "stream" -> Slot.STREAM;
      case "stream_options" -> Slot.STREAM_OPTIONS;
      case "messages" -> Slot.MESSAGES;
      case "prompt" -> Slot.PROMPT;
      case "input" -> Slot.INPUT;
      case "instructions" -> Slot.INSTRUCTIONS;
      case "max_tokens" -> Slot.MAX_TOKENS;
      case "max_completion_tokens", "max_output_tokens" -> Slot.MAX_NEW_TOKENS;
      default -> Slot.NONE;
    };
  }
}
