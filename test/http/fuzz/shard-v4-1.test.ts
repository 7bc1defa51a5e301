import { fuzzShard } from './pass';

fuzzShard(1, 4, 'v4');
