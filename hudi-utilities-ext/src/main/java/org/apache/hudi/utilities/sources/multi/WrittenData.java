/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hudi.utilities.sources.multi;

import java.util.Objects;

/**
 * What some completed commits of a table wrote, from their commit metadata: files, bytes and records. It sizes a read
 * window without reading it.
 */
public final class WrittenData {

  public static final WrittenData NONE = new WrittenData(0, 0, 0);

  private final long files;
  private final long bytes;
  private final long records;

  public WrittenData(long files, long bytes, long records) {
    this.files = files;
    this.bytes = bytes;
    this.records = records;
  }

  /** The files written (base and log files, one per write stat). */
  public long files() {
    return files;
  }

  public long bytes() {
    return bytes;
  }

  /** The records written: inserted, updated and deleted. */
  public long records() {
    return records;
  }

  public WrittenData plus(WrittenData other) {
    return new WrittenData(files + other.files, bytes + other.bytes, records + other.records);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof WrittenData)) {
      return false;
    }
    WrittenData that = (WrittenData) o;
    return files == that.files && bytes == that.bytes && records == that.records;
  }

  @Override
  public int hashCode() {
    return Objects.hash(files, bytes, records);
  }

  @Override
  public String toString() {
    return files + " files, " + bytes + " bytes, " + records + " records";
  }
}
