/** The handler fuzzed in process at full count: 10,000 generated requests, and 2,000 more on a storage failing 20% of calls. */
import { describeHandlerFuzz } from './handler-fuzz.ts';

describeHandlerFuzz({ requests: 10_000, withFailingStorage: 2_000 });
