package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;
import java.util.OptionalInt;

/**
 * Reads an OpenAI request body one token at a time, as a non-blocking parser delivers them. Values
 * of no interest are skipped without reading their text. Not thread-safe.
 */
final class RequestExtractor {
  static final int MAX_MODEL_CHARS = 1024;

  private final int maxDepth;
  private final int maxPrefixChars;
  private final Frame[] frames;
  private final PromptText instructions;
  private final PromptText prompt;
  private final RequestFields fields = new RequestFields();
  private int depth;
  private int skipping;
  private Slot pending = Slot.NONE;
  private int modelKeys;
  private long takenBytes;
  private boolean captured;
  private boolean started;
  private boolean done;

  RequestExtractor(ParserLimits limits) {
    this.maxDepth = limits.maxDepth();
    this.maxPrefixChars = limits.maxPrefixChars();
    this.frames = new Frame[maxDepth + 1];
    this.instructions = new PromptText(limits.maxPrefixChars());
    this.prompt = new PromptText(limits.maxPrefixChars());
  }

  /** Handles the next token. */
  void onToken(JsonToken token, JsonParser parser) throws IOException {
    if (skipping > 0) {
      skip(token);
    } else if (token == JsonToken.FIELD_NAME) {
      pending = frames[depth - 1].fieldSlot(parser.currentName());
      if (pending == Slot.MODEL && modelKeys++ > 0) {
        throw new RequestRejectedException(
            RejectReason.DUPLICATE_MODEL,
            "request body has more than one top-level 'model' member (expected one)");
      }
    } else if (done || !started) {
      onRootToken(token);
      fields.objectStart = bodyOffset(parser.currentTokenLocation().getByteOffset());
    } else if (token.isStructEnd()) {
      depth--;
      done = depth == 0;
    } else {
      onValue(
          token, parser, frames[depth - 1].isArray() ? frames[depth - 1].elementSlot() : pending);
    }
  }

  /**
   * Whether the parser is to decode the value string it has just opened: a model name, or anything
   * outside the request object. Otherwise its content is taken out of the parser's way ({@link
   * ValueStrings}) into {@link #textFor()} or nowhere.
   */
  boolean parserReads() {
    if (!started || done) {
      return true;
    }
    return skipping == 0 && slot() == Slot.MODEL;
  }

  /**
   * Where the text of the value string the parser has just opened goes, its segment begun: the
   * prompt or the instructions; null for a string nobody reads. Its token then reads as empty.
   */
  PromptText textFor() {
    if (skipping > 0) {
      return null;
    }
    Slot slot = slot();
    PromptText text = slot.isText() ? prompt : slot == Slot.INSTRUCTIONS ? instructions : null;
    if (text != null) {
      text.beginSegment();
      captured = true;
    }
    return text;
  }

  private Slot slot() {
    Frame frame = frames[depth - 1];
    return frame.isArray() ? frame.elementSlot() : pending;
  }

  /** The bytes taken out of the parser's way so far: they shift every offset after them. */
  void taken(long bodyBytes) {
    takenBytes = bodyBytes;
  }

  /** The parser's byte offset {@code parserOffset} in the body as sent. */
  long bodyOffset(long parserOffset) {
    return parserOffset + takenBytes;
  }

  /** Whether the root object has been closed. */
  boolean isDone() {
    return done;
  }

  /** Whether any token has been seen. */
  boolean isStarted() {
    return started;
  }

  /** The result, once {@link #isDone()}. */
  ParsedRequest result(ApiKind kind) {
    boolean both = !instructions.isEmpty() && !prompt.isEmpty();
    long chars = instructions.chars() + prompt.chars() + (both ? 1 : 0);
    PromptChars prefix = joinedPrefix(both);
    long tokens = (chars + 3) / 4 + fields.tokenIds;
    if (tokens == 0 && !(instructions.isEmpty() && prompt.isEmpty())) {
      tokens = 1;
    }
    return new ParsedRequest(
        fields.model,
        fields.stream,
        fields.includeUsage,
        prefix,
        chars,
        (int) Math.min(Integer.MAX_VALUE, tokens),
        fields.maxOutputTokens < 0 ? OptionalInt.empty() : OptionalInt.of(fields.maxOutputTokens),
        kind,
        new ParsedRequest.ModelSpan(fields.objectStart, fields.modelStart, fields.modelEnd));
  }

  private PromptChars joinedPrefix(boolean both) {
    if (!both) {
      return PromptChars.of(instructions.isEmpty() ? prompt.kept() : instructions.kept());
    }
    StringBuilder joined =
        new StringBuilder(instructions.kept()).append('\n').append(prompt.kept());
    if (joined.length() > maxPrefixChars) {
      joined.setLength(maxPrefixChars);
    }
    return PromptChars.of(joined);
  }

  private void onRootToken(JsonToken token) {
    if (done) {
      throw new RequestRejectedException(
          RejectReason.MALFORMED_JSON, "request body has data after the JSON object");
    }
    if (token != JsonToken.START_OBJECT) {
      throw new RequestRejectedException(
          RejectReason.NOT_OBJECT, "request body is JSON but not an object (found " + token + ")");
    }
    started = true;
    push(Frame.ROOT);
  }

  private void onValue(JsonToken token, JsonParser parser, Slot slot) throws IOException {
    switch (token) {
      case START_OBJECT -> open(slot.objectFrame());
      case START_ARRAY -> open(slot.arrayFrame());
      case VALUE_STRING -> onString(parser, slot);
      case VALUE_NUMBER_INT -> fields.onInteger(parser, slot);
      case VALUE_TRUE, VALUE_FALSE -> fields.onBoolean(slot, token == JsonToken.VALUE_TRUE);
      default -> {}
    }
    if (slot == Slot.MODEL && token != JsonToken.VALUE_STRING) {
      throw new RequestRejectedException(
          RejectReason.MODEL_NOT_STRING,
          "'model' must be a string (found " + describe(token) + ")");
    }
  }

  private void onString(JsonParser parser, Slot slot) throws IOException {
    if (captured) {
      captured = false; // its text went to the prompt at its opening quote; the parser saw ""
    } else if (slot.isText()) {
      prompt.append(parser);
    } else if (slot == Slot.INSTRUCTIONS) {
      instructions.append(parser);
    } else if (slot == Slot.MODEL) {
      fields.onModel(parser, takenBytes);
    }
  }

  private void open(Frame frame) {
    if (frame == null) {
      skipping = 1;
      enter();
    } else {
      push(frame);
    }
  }

  private void push(Frame frame) {
    enter();
    frames[depth - 1] = frame;
  }

  private void skip(JsonToken token) {
    if (token.isStructStart()) {
      skipping++;
      enter();
    } else if (token.isStructEnd()) {
      skipping--;
      depth--;
    }
  }

  private void enter() {
    if (++depth > maxDepth) {
      throw new RequestRejectedException(
          RejectReason.TOO_DEEP, "request body nests deeper than " + maxDepth + " levels");
    }
  }

  private static String describe(JsonToken token) {
    return switch (token) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> "a number";
    };
  }
}
