import { fuzzShard } from './pass';

fuzzShard(1, 3);
