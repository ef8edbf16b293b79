/** The handler fuzzed in process, briefly: the first 400 and 100 of the cases test/fuzz runs at full count (the seed is the same), so daily work meets an odd request's 500 in a second. */
import { describeHandlerFuzz } from '../fuzz/handler-fuzz.ts';

describeHandlerFuzz({ requests: 400, withFailingStorage: 100 });
