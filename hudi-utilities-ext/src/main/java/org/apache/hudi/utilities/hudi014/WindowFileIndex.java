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

package org.apache.hudi.utilities.hudi014;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.types.StructType;

import scala.Option;
import scala.collection.Seq;

/**
 * Spark's index of a window's files, sized as the window's rows in them ({@link WindowFiles#windowBytes()}) rather
 * than as the files: Spark's join planning reads a scan's size from its index, and a copy-on-write window of a few
 * updates lies in whole rewritten files, which would make a small delta look as big as its table.
 */
final class WindowFileIndex implements FileIndex {

  private final FileIndex files;
  private final long windowBytes;

  WindowFileIndex(FileIndex files, long windowBytes) {
    this.files = files;
    this.windowBytes = windowBytes;
  }

  @Override
  public Seq<Path> rootPaths() {
    return files.rootPaths();
  }

  @Override
  public Seq<PartitionDirectory> listFiles(Seq<Expression> partitionFilters, Seq<Expression> dataFilters) {
    return files.listFiles(partitionFilters, dataFilters);
  }

  @Override
  public String[] inputFiles() {
    return files.inputFiles();
  }

  @Override
  public void refresh() {
    files.refresh();
  }

  @Override
  public long sizeInBytes() {
    return windowBytes;
  }

  @Override
  public StructType partitionSchema() {
    return files.partitionSchema();
  }

  @Override
  public Option<Object> metadataOpsTimeNs() {
    return files.metadataOpsTimeNs();
  }

  @Override
  public String toString() {
    return "WindowFileIndex(" + windowBytes + " bytes of " + files + ")";
  }
}
