package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonParser;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;

/** The scalar fields of a request gathered while extracting. Not thread-safe. */
final class RequestFields {
  String model;
  long modelStart = -1;
  long modelEnd = -1;
  long objectStart = -1;
  boolean stream;
  boolean includeUsage;
  long tokenIds;
  int maxOutputTokens = -1;
  private boolean maxFromNewKey;

  /** The model name; {@code shift} bytes taken out before it put the parser's offsets back. */
  void onModel(JsonParser parser, long shift) throws IOException {
    int length = parser.getTextLength();
    if (length > RequestExtractor.MAX_MODEL_CHARS) {
      throw new RequestRejectedException(
          RejectReason.MODEL_TOO_LONG,
          "'model' is "
              + length
              + " characters long (expected at most "
              + RequestExtractor.MAX_MODEL_CHARS
              + ")");
    }
    String value = parser.getText();
    if (value.isBlank()) {
      throw new RequestRejectedException(
          RejectReason.EMPTY_MODEL, "'model' is empty (expected a model name)");
    }
    model = value;
    modelStart = parser.currentTokenLocation().getByteOffset() + shift;
    modelEnd = parser.currentLocation().getByteOffset() + shift;
  }

  void onBoolean(Slot slot, boolean value) {
    if (slot == Slot.STREAM) {
      stream = value;
    } else if (slot == Slot.INCLUDE_USAGE) {
      includeUsage = value;
    }
  }

  void onInteger(JsonParser parser, Slot slot) throws IOException {
    if (slot.isToken()) {
      tokenIds++;
    } else if (slot == Slot.MAX_NEW_TOKENS) {
      setMax(parser, true);
    } else if (slot == Slot.MAX_TOKENS && !maxFromNewKey) {
      setMax(parser, false);
    }
  }

  private void setMax(JsonParser parser, boolean fromNewKey) throws IOException {
    int value =
        parser.getNumberType() == JsonParser.NumberType.INT
            ? parser.getIntValue()
            : parser.getText().startsWith("-") ? -1 : Integer.MAX_VALUE;
    if (value >= 0) {
      maxOutputTokens = value;
      maxFromNewKey = fromNewKey;
    }
  }
}
