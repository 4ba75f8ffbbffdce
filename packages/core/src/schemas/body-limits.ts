/**
 * The most a run's or an enhancement's request body can hold and still pass its schema, so the
 * server reads no more than that: the idea (every character JSON-escaped as \uXXXX at worst),
 * five attachments at their largest (an image's base64 data URL; a text's 5 MB with its JSON
 * escapes), and room for the other fields.
 */
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_CONTENT_CHARS, MAX_ATTACHMENTS } from './attachments.js';
import { IDEA_MAX } from './projects.js';

const FIELDS_BYTES = 64 * 1024;
/** A 5 MB text's JSON: quotes, backslashes and newlines escape to two characters; allow half of them. */
const TEXT_JSON_BYTES = Math.ceil(MAX_ATTACHMENT_BYTES * 1.5);
const ATTACHMENT_BYTES = Math.max(MAX_ATTACHMENT_CONTENT_CHARS, TEXT_JSON_BYTES) + 4 * 1024;

/** POST /api/wolfpack/stream and POST /api/multi-pass-enhancements. */
export const MAX_RUN_BODY_BYTES = IDEA_MAX * 6 + MAX_ATTACHMENTS * ATTACHMENT_BYTES + FIELDS_BYTES;
