// @toolplane/scrubber/testing: helpers for tests (Node only); everything exported here is public API.
export { ALPHABETS, type FakeSource, createFakeSource } from './fake.js';
export { type AdversarialInput, adversarialInputs } from './adversarial.js';
