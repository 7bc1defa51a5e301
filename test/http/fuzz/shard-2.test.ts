import { fuzzShard } from './pass';

fuzzShard(2, 3);
