import { fuzzShard } from './pass';

fuzzShard(3, 3);
