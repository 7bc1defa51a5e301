import { fuzzShard } from './pass';

fuzzShard(2, 4, 'v4');
